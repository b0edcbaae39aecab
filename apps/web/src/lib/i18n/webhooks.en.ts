/**
 * The texts of the console's webhooks beyond the list (features/webhooks;
 * docs/curation.md#webhooks-in-the-console): a delivery's request and response, editing the URL and
 * events, rotating the secret, copying it.
 */
export const webhooksEn = {
  // copying a secret
  copySecret: 'Copy secret',
  copiedNote: 'Copied to the clipboard.',
  copyFallback: 'The clipboard is not available here: the secret is selected, press Ctrl+C (⌘C on a Mac).',
  // the list of deliveries
  pingBadge: 'Ping',
  showDelivery: (id: string) => `Details ${id}`,
  // the drawer
  deliveryTitle: (id: string) => `Delivery ${id}`,
  closeDrawer: 'Close',
  deliveryRequest: 'Request',
  deliveryResponse: 'Response',
  requestNotKept: 'Not kept: this attempt was recorded before requests were stored.',
  statusCode: 'Status',
  noAnswer: 'No answer',
  duration: 'Duration',
  durationMs: (ms: number) => `${ms} ms`,
  deliveryError: 'Error',
  headers: 'Headers',
  headerName: 'Name',
  headerValue: 'Value',
  noHeaders: 'None received.',
  body: 'Body',
  bodyJson: 'Body (JSON, indented here)',
  bodyEmpty: 'Empty.',
  bodyNone: 'None received.',
  bodyTruncated: 'Only the first 4 KB of the answer is kept.',
  // editing a webhook
  editWebhook: 'Edit…',
  editWebhookTitle: (url: string) => `Edit ${url}`,
  saveWebhook: 'Save',
  webhookSaved: 'Saved.',
  // rotating the secret
  rotateSecret: 'Rotate secret…',
  rotateTitle: 'Rotate the signing secret',
  rotateHelp:
    'The webhook gets a new secret, shown once. During the grace period every delivery is signed with both, so that the receiver can move to the new one.',
  graceLegend: 'The old secret keeps signing for',
  grace: (seconds: number) =>
    seconds === 0
      ? 'No time: it stops at once'
      : seconds === 3_600
        ? '1 hour'
        : seconds === 86_400
          ? '24 hours'
          : seconds === 604_800
            ? '7 days'
            : `${seconds} s`,
  rotateSecretYes: 'Rotate secret',
  rotatedOnce: 'The new signing secret, shown only now: copy it to the receiver.',
  oldSecretUntil: 'The old secret signs too until',
  oldSecretStopped: 'The old secret no longer signs.',
  done: 'Done',
};
