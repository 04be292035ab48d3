import { Module } from '@nestjs/common';

import { ProfilesModule } from '../profiles/profiles.module';
import { DecisionVariablesController } from './decision-variables.controller';
import { DecisionVariablesService } from './decision-variables.service';

@Module({
  imports: [ProfilesModule],
  controllers: [DecisionVariablesController],
  providers: [DecisionVariablesService],
})
export class DecisionVariablesModule {}
