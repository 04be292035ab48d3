import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox feed carries agents' events too (`agent.status`: an agent went online or offline), in
 * the same seq order as the chats' events: such a row has no chat (its `owner` is the agent).
 */
export class EngagementInboxAgentEvents1764400000000 implements MigrationInterface {
  name = 'EngagementInboxAgentEvents1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbox_events ALTER COLUMN chat_id DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM inbox_events WHERE chat_id IS NULL`);
    await q.query(`ALTER TABLE inbox_events ALTER COLUMN chat_id SET NOT NULL`);
  }
}
