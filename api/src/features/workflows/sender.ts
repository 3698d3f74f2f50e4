import { readJson } from '../../lib/json.ts';
import type { SecretBox } from '../../outbound/secret-box.ts';
import type { OutboundHttp } from '../../outbound/outbound-http.ts';
import { errorResult, resultOf } from '../../outbound/http-sender.ts';
import { standardWebhookHeaders } from '../../outbound/signing.ts';
import type { DeliveryRow } from '../../db/tables.ts';
import type { SendResult } from '../../outbound/types.ts';
import type { WorkflowSecrets } from './repository.ts';
import type { HttpRequestPayload } from './runs.ts';

/**
 * The `http_request` channel (workflow actions): the action's method, headers and body, signed with the
 * workflow's secret by Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), through the
 * outbound client that checks the address at connect time. Redirects are not followed; 2xx is delivered.
 */
export function workflowHttpSender(box: SecretBox, http: OutboundHttp) {
  return async function sendHttpRequest(row: DeliveryRow, now: Date): Promise<SendResult> {
    if (!row.secret_encrypted) return { outcome: 'failed', error: 'http_request delivery without its workflow secret (removed by rollcall admin forget-secrets)', durationMs: 0 };
    const secrets = readJson<WorkflowSecrets>(box.decrypt(row.secret_encrypted, 'the workflow\'s secrets'), { signing_secret: '', headers: {} });
    const request = readJson<HttpRequestPayload>(row.payload, { action_index: 0, method: 'POST', content_type: 'application/json', body: null });
    const body = request.body ?? '';
    const headers: Record<string, string> = {
      ...(secrets.headers[String(request.action_index)] ?? {}),
      'user-agent': 'Rollcall-Workflows/1.0',
      ...(request.body !== null ? { 'content-type': request.content_type } : {}),
      ...standardWebhookHeaders(secrets.signing_secret, row.webhook_id ?? `msg_${row.uuid}`, now, body),
    };
    const t0 = performance.now();
    try {
      const res = await http.send({ method: request.method, url: row.destination, headers, body: request.body ?? undefined });
      return resultOf(res, now);
    } catch (err) {
      return errorResult(err, Math.round(performance.now() - t0));
    }
  };
}
