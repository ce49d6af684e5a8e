import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from '../../src/runtime/logger.js';
import { LogCapture } from '../helpers/log-capture.js';

const TOKEN = 'canary.discord-token.ABCDEFGH12345678';
const KEY = 'canary-wallhaven-key-0123456789';

describe('logger', () => {
  it('scrubs secret values wherever they appear: message, nested fields, errors', () => {
    const capture = new LogCapture();
    const logger = createLogger({ level: 'info', secrets: [TOKEN, KEY], destination: capture });
    logger.info(`token is ${TOKEN}`);
    logger.info({ upstream: { url: `https://wallhaven.cc/api/v1/search?apikey=${KEY}` } }, 'nested');
    logger.error({ err: new Error(`failed with ${KEY}`) }, 'error object');
    logger.child({ interactionId: '1' }).warn({ deep: { deeper: [TOKEN] } }, 'child');
    expect(capture.lines).toHaveLength(4);
    expect(capture.text).not.toContain(TOKEN);
    expect(capture.text).not.toContain(KEY);
    expect(capture.text.match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('redacts secret-bearing paths even when the value is not a known secret', () => {
    const capture = new LogCapture();
    const logger = createLogger({ level: 'info', destination: capture });
    logger.info({ headers: { 'x-api-key': 'whatever-key', authorization: 'Bot abc' }, token: 't' }, 'request');
    const [entry] = capture.entries();
    expect(entry).toMatchObject({ headers: { 'x-api-key': '[REDACTED]', authorization: '[REDACTED]' }, token: '[REDACTED]' });
  });

  it('redacts secret-bearing paths inside any field, an error and a child binding, leaving the logged objects untouched', () => {
    const capture = new LogCapture();
    const logger = createLogger({ level: 'info', destination: capture });
    const request = { headers: { authorization: 'Bot abc', accept: 'json' } };
    const error = Object.assign(new Error('refused'), { apiKey: 'k', headers: { authorization: 'Bot abc' } });
    logger.child({ component: 'x' }).child({ apiKey: 'k' }).warn({ request, options: { token: 't' }, config: { discordToken: 't', level: 'info' }, err: error }, 'nested');
    const [entry] = capture.entries();
    expect(entry).toMatchObject({
      apiKey: '[REDACTED]',
      component: 'x',
      request: { headers: { authorization: '[REDACTED]', accept: 'json' } },
      options: { token: '[REDACTED]' },
      config: { discordToken: '[REDACTED]', level: 'info' },
      err: { message: 'refused', apiKey: '[REDACTED]', headers: { authorization: '[REDACTED]' } },
    });
    expect(request.headers.authorization).toBe('Bot abc');
  });

  it('does not scrub short strings that are not real secrets', () => {
    expect(scrubSecrets('a short value', ['short'])).toBe('a short value');
  });
});
