/** Full URL of the next page: the same request under base_url with the new cursor. */
export function nextUrl(url: URL, baseUrl: string, path: string, cursor: string): string {
  const q = new URLSearchParams(url.searchParams);
  q.set("cursor", cursor);
  return `${baseUrl}${path}?${q.toString()}`;
}
