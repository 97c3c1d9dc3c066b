// Exact request bytes over a loopback TCP socket (fetch normalises Host and methods; the fuzzer did not).
import { connect } from "node:net";

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

export function rawRequest(port: number, bytes: string, timeoutMs = 3000): Promise<RawReply> {
  return new Promise((resolve) => {
    let out = "";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      const [head = "", ...rest] = out.split("\r\n\r\n");
      const lines = head.split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(":");
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status, headers, body: rest.join("\r\n\r\n"), raw: out });
    };
    const sock = connect(port, "127.0.0.1", () => sock.write(bytes));
    sock.setEncoding("utf8");
    sock.on("data", (d) => {
      out += d;
      // one response is enough: stop when Content-Length bytes of body are in
      const i = out.indexOf("\r\n\r\n");
      if (i >= 0) {
        const m = /content-length:\s*(\d+)/i.exec(out.slice(0, i));
        if (m && Buffer.byteLength(out.slice(i + 4)) >= Number(m[1])) finish();
      }
    });
    sock.on("end", finish);
    sock.on("close", finish);
    sock.on("error", finish);
    const timer = setTimeout(finish, timeoutMs);
  });
}
