// A database URL as it may be printed (logs, start lines, load reports): never its password.
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}
