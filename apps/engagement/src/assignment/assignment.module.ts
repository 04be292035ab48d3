import { Global, Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { QueueDrain } from '../agents/queue-drain';
import { AssignmentService } from './assignment.service';
import { ChatOwnerService } from './chat-owner.service';
import { RulesetsController } from './rulesets.controller';
import { RulesetsService } from './rulesets.service';

/**
 * Queues and assignment of chats to agents, the tenant's ruleset, chat owners and statuses. Global
 * so that agents reach the queue drain through the QueueDrain port without importing this module.
 */
@Global()
@Module({
  imports: [AgentsModule],
  controllers: [RulesetsController],
  providers: [
    AssignmentService,
    ChatOwnerService,
    RulesetsService,
    { provide: QueueDrain, useExisting: AssignmentService },
  ],
  exports: [AssignmentService, ChatOwnerService, QueueDrain],
})
export class AssignmentModule {}
