/** A request sent from Send Request as the history keeps it (src/commands/requestHistory.ts): what Save to Request File writes. */
export interface HistoryEntry {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** Body as the user typed it (JSON text). */
  body?: string;
  /** Extra headers the user added, secrets removed. */
  headers?: Record<string, string>;
  tenantId?: string;
  /** Tenant name at the time, for display. */
  tenantLabel?: string;
  /** The URL the request went to (no credentials are ever in a URL we build). */
  url?: string;
  /** Undefined when no answer came (the request was not sent, or the connection failed). */
  status?: number;
  /** The error kind (src/api/errors) when the request failed: never its message, which may quote what was sent. */
  error?: string;
  timeMs?: number;
  /** Epoch ms. */
  at: number;
}
