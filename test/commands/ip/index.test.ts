import { describe, expect, it } from 'vitest';
import { ip } from '../../../commands/ip/index.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { ipServices } from '../../helpers/ip-lookups.js';

describe('/ip definition', () => {
  it('has lookup and time, each with its address option required and a public switch, whois with its query, dig with its name, type and resolver, and bulk with its file', () => {
    expect(ip.data.name).toBe('ip');
    const subcommands = (ip.data.options ?? []) as { name: string; options?: { name: string; required?: boolean; max_length?: number }[] }[];
    expect(subcommands.map((sub) => [sub.name, sub.options?.map((option) => [option.name, option.required ?? false])])).toEqual([
      ['lookup', [['addresses', true], ['public', false]]],
      ['time', [['address', true], ['public', false]]],
      ['whois', [['query', true]]],
      ['dig', [['name', true], ['type', false], ['resolver', false]]],
      ['bulk', [['file', true]]],
    ]);
    expect(subcommands[0]!.options![0]!.max_length).toBe(5000);
  });

  it('answers each subcommand with its own file: time as one line, lookup as embeds', async () => {
    const { app } = ipServices();
    expect((await ip.execute(chatContext('time', { address: '8.8.8.8' }).ctx, app)).embeds).toBeUndefined();
    expect((await ip.execute(chatContext('lookup', { addresses: '8.8.8.8' }).ctx, app)).embeds).toHaveLength(1);
  });
});
