// Minimal typing for the one topojson-client function the builder uses (the package ships no types).
declare module "topojson-client" {
  export function feature(topology: any, object: any): any;
}
