// THE refusal rule for questions about people (owners, taxpayers, buyers ...): one rule shared by the county-data
// question reader, the county-data plan parameters and the MCP server's fields and questions. Text is normalised
// before the words are looked for: Unicode compatibility forms (full-width letters, ligatures), look-alike letters
// of other scripts (Cyrillic "о", Greek "Ρ": the `confusables` library), digits written for letters inside words
// ("0wner", "purchas3r"), camelCase and snake_case names (TaxpayerName, mailing_address) split into words.
// The loader's side of the same rule is here too: the column names and mapping keys it never reads (OWNER_COLUMN,
// OWNER_KEYS, used by mapping.ts), written for the abbreviations of assessor rolls rather than for questions.
import { remove as plainLetters } from "confusables";

/** Words that ask about people; matched as whole words of the normalised text. */
const PEOPLE =
  /\b(owners?|owns|owned|own|ownership|landowners?|landlords?|taxpayers?|tax payers?|payers?|buyers?|purchasers?|purchased by|bought by|sellers?|sold by|vendees?|vendors?|grantees?|grantors?|mailing|mail to|in care of|care of|careof|c o|contact name|names? of|belongs? to|belonging to|whose|who|whom|person|persons|people|individuals?|holders?|titleholders?|proprietors?|occupants?|residents?|tenants?|heirs?|surnames?|first names?|last names?)\b/;

const DIGIT_LETTERS: Record<string, string> = { "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b" };

/** The text as plain lower-case words (see the header); one string per reading of "1" (as l and as i). */
export function peopleReadings(text: string): string[] {
  const base = plainLetters(text.normalize("NFKC"))
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[@$]/g, (c) => (c === "@" ? "a" : "s"));
  return ["l", "i"].map((one) => {
    // digits inside a word that also has letters stand for letters; plain numbers stay numbers
    const words = base
      .split(/[^a-z0-9]+/)
      .map((w) =>
        /[a-z]/.test(w) && /\d/.test(w) ? w.replace(/\d/g, (d) => (d === "1" ? one : (DIGIT_LETTERS[d] ?? d))) : w,
      );
    return ` ${words.filter(Boolean).join(" ")} `;
  });
}

/** Whether a question, a field name or a parameter asks about people. */
export function asksAboutPeople(text: string): boolean {
  return peopleReadings(text).some((t) => PEOPLE.test(t));
}

/** Column names of a parcel roll that hold people's names: never read, even if a mapping names them. */
export const OWNER_COLUMN =
  /owner|ownr|taxpayer|tax_?payer|mail(ing)?_?(name|addr)|^mail|grantee|grantor|buyer|seller|in_?care_?of|careof|contact_?name|person/i;
/** Mapping keys that name owner data: dropped from a mapping with a message, whatever column they name. */
export const OWNER_KEYS = /owner|taxpayer|mailing|grantee|grantor|buyer|seller|person|contact/i;
