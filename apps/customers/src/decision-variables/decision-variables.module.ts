import { Module } from '@nestjs/common';

import { DecisionVariablesController } from './decision-variables.controller';
import { DecisionVariablesService } from './decision-variables.service';

@Module({ controllers: [DecisionVariablesController], providers: [DecisionVariablesService] })
export class DecisionVariablesModule {}
