/**
 * What this process is for. A service serving HTTP runs its background work (outbox relay, Kafka
 * consumers, access cache, job workers); an operator command (`main.js admin …`, runAdminCommand)
 * boots the same module without it, writes through the same services and exits.
 */
export const processRole = { background: true };
