/** @jsxImportSource @kitajs/html */
// The forms used on several pages (plain GET forms: they work without JavaScript).
import { STATES } from "../domain/states";
import type { Linker } from "./site";

export function StateSelect({
  name,
  id,
  value,
  anyLabel,
}: {
  name: string;
  id: string;
  value?: string | null;
  anyLabel: string;
}) {
  return (
    <select name={name} id={id}>
      <option value="" safe>
        {anyLabel}
      </option>
      {STATES.map((s) => (
        <option value={s.postal} selected={s.postal === value} safe>{`${s.name} (${s.postal})`}</option>
      ))}
    </select>
  );
}

export function SearchForm({ l, q, state }: { l: Linker; q?: string; state?: string | null }) {
  return (
    <form class="inline" method="get" action={l.path("/search")} role="search">
      <label for="q">
        Name of a place or website
        <input id="q" name="q" type="search" value={q ?? ""} minlength="2" maxlength="200" required />
      </label>
      <label for="search-state">
        State
        <StateSelect name="state" id="search-state" value={state} anyLabel="Any state" />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

/** A form's heading at the level the page needs (the find page: under its h1; the home page: under an h2). */
function Heading({ level, id, children }: { level: 2 | 3; id: string; children: string }) {
  return level === 2 ? (
    <h2 id={id} safe>
      {children}
    </h2>
  ) : (
    <h3 id={id} safe>
      {children}
    </h3>
  );
}

export function FindForms({ l, v, level = 3 }: { l: Linker; v?: Record<string, string>; level?: 2 | 3 }) {
  const val = (k: string) => v?.[k] ?? "";
  return (
    <>
      <Heading level={level} id="by-address">
        By address
      </Heading>
      <form class="inline" method="get" action={l.path("/find")} aria-labelledby="by-address">
        <label for="address">
          Street address, city and state
          <input
            id="address"
            name="address"
            value={val("address")}
            minlength="3"
            maxlength="200"
            required
            autocomplete="street-address"
          />
        </label>
        <button type="submit">Find</button>
      </form>
      <Heading level={level} id="by-point">
        By point
      </Heading>
      <PointHint id="by-point-hint" />
      <form class="inline" method="get" action={l.path("/find")} aria-labelledby="by-point">
        <label for="lat">
          Latitude
          <input id="lat" name="lat" value={val("lat")} aria-describedby="by-point-hint" required />
        </label>
        <label for="lon">
          Longitude
          <input id="lon" name="lon" value={val("lon")} aria-describedby="by-point-hint" />
        </label>
        <button type="submit">Find</button>
      </form>
      <Heading level={level} id="by-place">
        By place name
      </Heading>
      <form class="inline" method="get" action={l.path("/find")} aria-labelledby="by-place">
        <label for="place">
          County, city, town or township
          <input id="place" name="place" value={val("place")} minlength="2" maxlength="100" required />
        </label>
        <label for="place-state">
          State
          <StateSelect name="state" id="place-state" value={val("state")} anyLabel="Any state" />
        </label>
        <button type="submit">Find</button>
      </form>
    </>
  );
}

/** How to give a point: the fields are plain text (a phone's number pad has no minus sign), and both numbers may
 * be pasted into the first field (src/web/coordinates.ts reads them). */
function PointHint({ id }: { id: string }) {
  return (
    <p class="hint" id={id}>
      Decimal degrees, e.g. 47.6062 and -122.3321; or paste both into Latitude as “47.6062, -122.3321”.
    </p>
  );
}

export function PointForm({
  l,
  lat,
  lon,
  action,
  button,
}: {
  l: Linker;
  lat?: string;
  lon?: string;
  action: string;
  button: string;
}) {
  return (
    <form class="inline" method="get" action={l.path(action)}>
      <PointHint id="s-hint" />
      <label for="s-lat">
        Latitude
        <input id="s-lat" name="lat" value={lat ?? ""} aria-describedby="s-hint" required />
      </label>
      <label for="s-lon">
        Longitude
        <input id="s-lon" name="lon" value={lon ?? ""} aria-describedby="s-hint" />
      </label>
      <button type="submit" safe>
        {button}
      </button>
    </form>
  );
}
