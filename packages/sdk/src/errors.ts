/**
 * Every failure of an SDK call: a non-2xx reply (its envelope's `error` and `details`), or
 * no usable reply at all (`status` 0: 'Network error' or 'Timeout').
 */
export class DirectoryError extends Error {
  /** The HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The envelope's error type, e.g. 'Validation error', 'Not Found', 'Timeout'. */
  readonly error: string;
  readonly details: string[];

  constructor(status: number, error: string, details: string[], options: { cause?: unknown } = {}) {
    super(details.length ? `${error}: ${details.join('; ')}` : error, options);
    this.name = 'DirectoryError';
    this.status = status;
    this.error = error;
    this.details = details;
  }
}

const isErrorEnvelope = (v: unknown): v is { error: string; details?: unknown } =>
  typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';

/**
 * The error a non-2xx reply stands for. A body that is not the service's envelope (a proxy's
 * HTML page, an empty 502) still names the status and shows the start of the body.
 */
export function errorFromReply(status: number, statusText: string, text: string): DirectoryError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (isErrorEnvelope(json)) {
    const details = Array.isArray(json.details) ? json.details.map(String) : [];
    return new DirectoryError(status, json.error, details);
  }
  const error = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  const body = text.trim();
  return new DirectoryError(status, error, [
    body
      ? `Unexpected response body: ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`
      : 'Empty response body',
  ]);
}
