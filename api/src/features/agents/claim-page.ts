import { escapeHtml } from '../../lib/html.ts';

/**
 * What a claim link (the `claim_url` of a self-registration) shows when it is opened: which agent it is, and the
 * one request that claims it. The claim itself is a POST by a signed-in person; this page only says how, as a
 * small self-contained HTML page for a browser or as JSON for a script.
 */
export interface ClaimLink {
  agentName: string;
  orgName: string;
  token: string;
  baseUrl: string;
}

const claimRequest = (link: ClaimLink) => ({ method: 'POST', url: `${link.baseUrl}/v1/agent/claim/`, body: { claim_token: link.token } });

const detail = (link: ClaimLink) =>
  `This link claims the agent "${link.agentName}" (registered with its own organization "${link.orgName}") into your organization: ` +
  'send the claim request below signed in as a person of your organization (a personal API key or a session token). ' +
  'Its reports and messages move with it, and its key then belongs to your organization.';

/** GET /v1/agent/claim/ as JSON: what the link is and the request that claims it. */
export function presentClaimLink(link: ClaimLink) {
  return { agent_name: link.agentName, org_name: link.orgName, detail: detail(link), claim: claimRequest(link) };
}

/** GET /v1/agent/claim/ in a browser. */
export function claimPage(link: ClaimLink): string {
  const request = claimRequest(link);
  const curl = `curl -X POST ${request.url} \\\n  -H "X-API-KEY: rk_your_personal_key" -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(request.body)}'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Claim the agent ${escapeHtml(link.agentName)} · Rollcall</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2328}pre{background:#f6f8fa;padding:1rem;overflow-x:auto;border-radius:6px}</style>
</head>
<body>
<h1>Claim the agent ${escapeHtml(link.agentName)}</h1>
<p>${escapeHtml(detail(link))}</p>
<pre><code>${escapeHtml(curl)}</code></pre>
<p>Use your own key in place of <code>rk_your_personal_key</code>. The link works until the agent is claimed.</p>
</body>
</html>
`;
}
