/**
 * Links from the site to the API server's own pages. The API container serves the site beside the API
 * (SITE_DIR), so by default they are same-origin paths; a site hosted elsewhere sets API_URL at build time.
 */
const base = (process.env.API_URL ?? '').replace(/\/+$/, '');

export const API_LINKS = {
  /** The interactive reference the API renders from its OpenAPI document. */
  reference: `${base}/docs`,
  openapi: `${base}/v1/openapi.json`,
};
