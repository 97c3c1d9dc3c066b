// The one API version (spec: directory-api-v1): OpenAPI's info.version and the MCP server's version say it.
export const API_VERSION = "1.4.0";
