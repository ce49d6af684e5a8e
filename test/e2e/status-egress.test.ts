import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import type { InteractionOrigin } from '../fakes/discord.js';
import { MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

/** The fake GeoJS sees the bot from loopback; here it says the bot comes from a public address. */
const EGRESS = '81.2.69.142';
const OPERATOR_ID = '1356000000000000299';

describe('/status: the egress address, for a server’s managers and the bot’s operators only', () => {
  let geo: FakeGeoJs;
  let bot: TestBot;

  beforeAll(async () => {
    geo = await startFakeGeoJs();
    bot = await startTestBot({ env: { GEOJS_URL: geo.url, OPERATOR_IDS: `123456789012345678, ${OPERATOR_ID}` } });
  });

  afterAll(async () => {
    await bot?.stop();
    await geo?.close();
  });

  beforeEach(() => {
    geo.reset();
    geo.callerIp = EGRESS;
  });

  const status = async (origin: InteractionOrigin) => (await bot.discord.chatInput({ name: 'status', ...origin })).final();
  const egressField = (final: Awaited<ReturnType<typeof status>>) => final.embeds[0]?.fields?.find((field) => field.name === 'Seen by upstreams from');

  it('shows a member with Manage Server the address and its network, asking GeoJS once an hour', async () => {
    const manager = { memberPermissions: MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild };
    const first = await status(manager);
    expect(first.ephemeral).toBe(true);
    expect(egressField(first)?.value).toBe(`\`${EGRESS}\` · AS20712 · Andrews & Arnold Ltd`);
    const again = await status(manager);
    expect(egressField(again)?.value).toBe(egressField(first)?.value);
    expect(geo.requestsTo('/v1/ip.json')).toHaveLength(1);
  });

  it('shows a user listed in OPERATOR_IDS the address, without Manage Server', async () => {
    const final = await status({ user: { id: OPERATOR_ID } });
    expect(egressField(final)?.value).toContain(EGRESS);
  });

  it('never shows anyone else the address, nor asks GeoJS for it', async () => {
    const final = await status({});
    expect(final.embeds[0]!.title).toBe('Almanac status');
    expect(egressField(final)).toBeUndefined();
    expect(JSON.stringify(final)).not.toContain(EGRESS);
    expect(geo.requests).toEqual([]);
  });
});
