import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AssignmentModule } from '../assignment/assignment.module';
import { AgentEntity } from './agent.entity';
import { AgentStore } from './agent.store';
import { AgentTemplateEntity } from './agent-template.entity';
import { AgentTemplatesController } from './agent-templates.controller';
import { AgentTemplatesService } from './agent-templates.service';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';

/** Agents of the workspace: status, capacities, group counters. */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity, AgentTemplateEntity]), AssignmentModule],
  controllers: [AgentsController, AgentTemplatesController],
  providers: [AgentStore, AgentsService, AgentTemplatesService],
})
export class AgentsModule {}
