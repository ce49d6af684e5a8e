import { Client, GatewayIntentBits, type ClientOptions } from 'discord.js';

export interface DiscordClientOptions {
  apiUrl: string;
  /** Extra REST options; tests lower retries and timeouts. */
  rest?: ClientOptions['rest'];
}

/**
 * Only the Guilds intent (channel flags for NSFW gating come with it); no privileged intents.
 * Mentions are off globally, so nothing a user or an upstream writes can ping anyone.
 */
export function createDiscordClient(options: DiscordClientOptions): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [], repliedUser: false },
    rest: { api: options.apiUrl, ...options.rest },
  });
}
