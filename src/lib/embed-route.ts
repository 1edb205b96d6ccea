/** Where the embeddable prequalification widget is served (docs/embed.md); the version is in the path, so v2 can live beside v1. */
export const EMBED_ROUTE = "/embed/v1";
