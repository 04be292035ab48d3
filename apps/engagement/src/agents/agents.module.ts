import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AgentEntity } from './agent.entity';
import { AgentStore } from './agent.store';
import { AgentSettingsService } from './agent-settings.service';
import { AgentTemplateEntity } from './agent-template.entity';
import { AgentTemplatesController } from './agent-templates.controller';
import { AgentTemplatesService } from './agent-templates.service';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';

/**
 * Agents of the workspace: status, capacities, settings, group counters. The queue drain after an
 * agent comes online is assignment's, reached through the QueueDrain port it binds globally.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity, AgentTemplateEntity])],
  controllers: [AgentsController, AgentTemplatesController],
  providers: [AgentStore, AgentSettingsService, AgentsService, AgentTemplatesService],
  exports: [AgentStore, AgentSettingsService],
})
export class AgentsModule {}
