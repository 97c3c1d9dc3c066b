// A page that answers 200 but says its site is retired ("This website is no longer in use. Please visit our new
// site ...") is not a live page: the link checker reads the start of each page that answered and looks for such a
// notice in its visible text (Bun's HTMLRewriter drops scripts and styles). Conservative phrases only: a notice
// about the whole site or page, never a sentence that merely contains "moved".
export const RETIRED_SCAN_BYTES = 64 * 1024;

const NOTICES: RegExp[] = [
  /\b(this|our) (web ?site|site|page|domain) (is|has been) (no longer (in use|maintained|being (maintained|updated)|active|updated)|retired|decommissioned|discontinued)\b/i,
  /\b(this|our) (web ?site|site|page|domain) (has|have) (moved|been moved|relocated)\b/i,
  /\bwe have moved to a new (web ?site|site|domain|address)\b/i,
  /\b(web ?site|site|domain) is no longer in use\b/i,
];

/** Visible text of an HTML page (scripts, styles and templates dropped), whitespace squashed. */
async function visibleText(html: string): Promise<string> {
  // two passes: a text handler still sees the text of an element another handler removes
  const drop: HTMLRewriterTypes.HTMLRewriterElementContentHandlers = { element: (e) => void e.remove() };
  const bare = await new HTMLRewriter()
    .on("script", drop)
    .on("style", drop)
    .on("noscript", drop)
    .on("template", drop)
    .on("title", drop)
    .transform(new Response(html))
    .text();
  const parts: string[] = [];
  await new HTMLRewriter()
    .on("*", { text: (t) => void parts.push(t.text) })
    .transform(new Response(bare))
    .text();
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/** The retirement notice a page shows (the sentence, at most 200 characters), or null. */
export async function retiredNotice(html: string): Promise<string | null> {
  const text = await visibleText(html);
  for (const re of NOTICES) {
    const m = re.exec(text);
    if (!m) continue;
    const start = Math.max(0, text.lastIndexOf(".", m.index) + 1);
    const end = text.indexOf(".", m.index + m[0].length);
    return text
      .slice(start, end < 0 ? undefined : end + 1)
      .trim()
      .slice(0, 200);
  }
  return null;
}
