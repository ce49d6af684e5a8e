import { DiscordAPIError, DiscordjsErrorCodes } from 'discord.js';

interface DiscordFailureContext {
  /** `DISCORD_API_URL`, named in the sentence so a proxy or a typo is easy to spot. */
  apiUrl: string;
  /** How long the attempt lasted, retries included. */
  elapsedMs: number;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * One sentence for an operator about why talking to Discord failed at start-up or registration:
 * what happened, where, and what to change. The error itself (with its stack) belongs in the debug log.
 * None of these sentences can carry the token: they are built from codes, statuses and the URL.
 */
export function describeDiscordFailure(error: unknown, context: DiscordFailureContext): string {
  const { apiUrl } = context;
  if (errorCode(error) === DiscordjsErrorCodes.TokenInvalid || (error instanceof DiscordAPIError && error.status === 401)) {
    return `Discord refused the token (401 Unauthorized) at ${apiUrl}: set DISCORD_TOKEN to the token from the Developer Portal (your app → Bot → Reset Token).`;
  }
  if (errorCode(error) === DiscordjsErrorCodes.DisallowedIntents) {
    return 'Discord refused the gateway intents: Almanac needs only the Guilds intent; check the app settings in the Developer Portal.';
  }
  if (error instanceof DiscordAPIError) {
    return `Discord answered ${error.status} (${error.message}) at ${apiUrl}.`;
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return `Discord did not answer within ${Math.max(1, Math.round(context.elapsedMs / 1000))} s at ${apiUrl}: check the network, a proxy, or DISCORD_API_URL.`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const networkCode = errorCode(cause) ?? errorCode(error);
  if (networkCode !== undefined || (error instanceof TypeError && error.message === 'fetch failed')) {
    const reason = networkCode ?? (cause instanceof Error ? cause.message : 'network error');
    return `Could not reach Discord at ${apiUrl} (${reason}): check the network, a proxy, or DISCORD_API_URL.`;
  }
  return `Talking to Discord at ${apiUrl} failed: ${error instanceof Error ? error.message : String(error)}.`;
}
