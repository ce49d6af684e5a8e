import { describe, expect, it, vi } from 'vitest';
import { status } from '../../../commands/status/index.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext, stubServices } from '../../helpers/command-contexts.js';
import { GOOGLE_DNS } from '../../helpers/ip-lookups.js';

function statusServices(egress: () => Promise<unknown> = async () => GOOGLE_DNS.record) {
  const geo = { egress: vi.fn(egress) };
  const app = stubServices({
    geo,
    config: { operatorIds: ['7'] },
    state: { backend: 'memory' },
    version: '1.2.3',
    startedAt: Date.UTC(2026, 5, 1, 11),
    mode: 'gateway',
    gatewayPing: () => 42,
    upstreamHealth: () => [],
  });
  return { app, geo };
}

const egressField = (reply: Awaited<ReturnType<typeof status.execute>>) => reply.embeds?.[0]?.fields?.find((field) => field.name === en.status.egress);

describe('/status', () => {
  it('is registered for server installs only', () => {
    expect(status.data).toMatchObject({ name: 'status', integration_types: [0], contexts: [0] });
  });

  it('shows nothing of the operators’ figures where the server did not install Almanac', async () => {
    const { app, geo } = statusServices();
    const { ctx } = chatContext(null);
    const reply = await status.execute({ ...ctx, installation: { context: 'guild', byGuild: false } }, app);
    expect(reply).toEqual({ content: en.install.statusNeedsServerInstall, ephemeral: true });
    expect(geo.egress).not.toHaveBeenCalled();
  });

  it('asks for and shows the egress address only to a server’s manager or an operator', async () => {
    const member = statusServices();
    expect(egressField(await status.execute(chatContext(null).ctx, member.app))).toBeUndefined();
    expect(member.geo.egress).not.toHaveBeenCalled();
    const manager = statusServices();
    expect(egressField(await status.execute(chatContext(null, {}, { manageServer: true }).ctx, manager.app))?.value).toBe('`8.8.8.8` · AS15169 · GOOGLE');
    const operator = statusServices();
    expect(egressField(await status.execute(chatContext(null, {}, { user: { id: '7' } }).ctx, operator.app))).toBeDefined();
  });

  it('says the egress address is unknown when GeoJS does not answer, and still answers', async () => {
    const { app } = statusServices(async () => Promise.reject(new Error('timeout')));
    expect(egressField(await status.execute(chatContext(null, {}, { manageServer: true }).ctx, app))?.value).toBe(en.status.egressUnknown);
  });
});
