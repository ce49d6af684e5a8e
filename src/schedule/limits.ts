/** At most this many subscriptions a channel, and a server (the feed subscriptions of later issues count too). */
export const SUBSCRIPTION_LIMITS = { perChannel: 10, perGuild: 50 } as const;
