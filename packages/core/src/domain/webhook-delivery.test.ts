import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  attemptError,
  messageId,
  newWebhookSecret,
  retryDelayMs,
  signedHeaders,
} from './webhook-delivery.ts';

describe('webhook delivery policy', () => {
  it('makes Standard Webhooks secrets and signatures a receiver verifies', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSecret()).not.toBe(secret);
    const body = JSON.stringify({ type: 'project.created', data: { slug: 'qwen' } });
    const headers = signedHeaders(secret, messageId('311'), body, new Date());
    expect(headers['webhook-id']).toBe('chg_311');
    expect(headers['content-type']).toBe('application/json');
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('counts 2xx as delivered and anything else as a failed attempt', () => {
    expect(attemptError(200)).toBeNull();
    expect(attemptError(204)).toBeNull();
    expect(attemptError(299)).toBeNull();
    expect(attemptError(301)).toBe('HTTP 301');
    expect(attemptError(500)).toBe('HTTP 500');
    expect(attemptError(0)).toBe('HTTP 0');
  });

  it('doubles the retry delay from the base, jittered ±25%, capped at an hour', () => {
    for (let i = 0; i < 200; i++) {
      const first = retryDelayMs(1, 5_000);
      expect(first).toBeGreaterThanOrEqual(3_750);
      expect(first).toBeLessThanOrEqual(6_250);
      const fourth = retryDelayMs(4, 5_000);
      expect(fourth).toBeGreaterThanOrEqual(30_000);
      expect(fourth).toBeLessThanOrEqual(50_000);
      const late = retryDelayMs(200, 5_000);
      expect(late).toBeGreaterThanOrEqual(2_700_000);
      expect(late).toBeLessThanOrEqual(4_500_000);
    }
  });
});
