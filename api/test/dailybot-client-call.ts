/** One call of the DailyBot client (dailybot-client.ts), as the contract test makes it. */
export interface ClientCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: string;
  body?: unknown;
  /** `multipart`: one file (part `file`) and a `caption`, as the client's multipart upload sends it. */
  multipart?: boolean;
  /** The headers the client adds (If-Match from the list read, Idempotency-Key on bulk). */
  headers?: Record<string, string>;
  /** The client reads an ETag first and sends it back as If-Match (the saved-view array saves). */
  ifMatchFrom?: string;
  /**
   * Answer fields a command reads, as paths: `attachment.uuid`; `results.*.role` is that field of every item
   * (there must be one), `*.uuid` of every item of an array answer. A field present with null counts as given.
   */
  reads?: string[];
  /** Ids later calls use, taken from the answer: `{ boardFile: 'uuid' }`. */
  capture?: Record<string, string>;
}
