import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AssignmentModule } from '../assignment/assignment.module';
import { AgentEntity } from './agent.entity';
import { AgentTemplateEntity } from './agent-template.entity';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';

/** Agents of the workspace: status, capacities, group counters. */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity, AgentTemplateEntity]), AssignmentModule],
  controllers: [AgentsController],
  providers: [AgentsService],
})
export class AgentsModule {}
