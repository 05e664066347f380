/**
 * Body of every signed webhook delivery. `id` is the event id (also in the `x-service-alerts-event-id`
 * header); it stays the same across retries and re-queues, so receivers can de-duplicate on it.
 */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  /** `alert.<kind>` for alerts, `test` for `POST /api/channels/{id}/test`. */
  type: string;
  createdAt: string;
  data: D;
}

export function buildWebhookEvent<D>(id: string, type: string, data: D, createdAt: Date = new Date()): WebhookEvent<D> {
  return { id, type, createdAt: createdAt.toISOString(), data };
}
