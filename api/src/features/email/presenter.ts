/** POST /v1/send-email/ (CONTRACT §7): the message is in the outbox; GET /v1/deliveries/{uuid}/ follows it. */
export function presentEmailQueued(sent: { uuid: string; to: string[]; subject: string }) {
  return { id: sent.uuid, uuid: sent.uuid, status: 'pending', to: sent.to, subject: sent.subject, sent_count: sent.to.length, total_recipients: sent.to.length };
}
