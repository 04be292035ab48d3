import { Global, Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { QueueDrain } from '../agents/queue-drain';
import { ChatAssignment } from '../chats/chat-assignment';
import { AssignmentService } from './assignment.service';
import { RulesetsController } from './rulesets.controller';
import { RulesetsService } from './rulesets.service';

/**
 * Queues and assignment of chats to agents, and the tenant's ruleset. Global so that agents and
 * chats reach it through their ports (QueueDrain, ChatAssignment) without importing this module.
 */
@Global()
@Module({
  imports: [AgentsModule],
  controllers: [RulesetsController],
  providers: [
    AssignmentService,
    RulesetsService,
    { provide: QueueDrain, useExisting: AssignmentService },
    { provide: ChatAssignment, useExisting: AssignmentService },
  ],
  exports: [AssignmentService, QueueDrain, ChatAssignment],
})
export class AssignmentModule {}
