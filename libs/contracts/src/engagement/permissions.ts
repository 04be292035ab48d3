/**
 * The agent workspace's permissions (engagement). A support desk's three kinds of people:
 * - readers see chats, agents and queues;
 * - agents also work the chats they own (reply, close, tag, hand over), take unassigned chats from
 *   the queue for themselves, add notes to any chat and set their own status;
 * - managers act on every chat and every agent (assignment, capacities, rulesets, agent templates).
 * Exports of conversations are a permission of their own.
 */
export const ENGAGEMENT_READ = 'engagement.chats.read' as const;
export const ENGAGEMENT_AGENT = 'engagement.chats.agent' as const;
export const ENGAGEMENT_MANAGE = 'engagement.agents.manage' as const;
export const ENGAGEMENT_EXPORT = 'engagement.chats.export' as const;
