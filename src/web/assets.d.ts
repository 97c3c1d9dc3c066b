// Text imports of the pages (the stylesheet is imported `with { type: "text" }` and compiled into the executable).
declare module "*.css" {
  const text: string;
  export default text;
}
