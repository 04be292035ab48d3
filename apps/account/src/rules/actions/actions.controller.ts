import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  FormBody,
  RequirePermissions,
} from '@kyc/platform';
import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';

import { RULES_PERMISSION } from '../rules.permissions';
import { presentAction } from './action.presenter';
import { ActionsService } from './actions.service';
import { ACTION_EXAMPLE, ActionResponse } from './dto/action.response';
import { CreateActionDto } from './dto/create-action.dto';
import { UpdateActionDto } from './dto/update-action.dto';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/rules/:rule_id/actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Post()
  @ApiSuccess({ status: 201, wrap: 'action', type: ActionResponse, example: { action: ACTION_EXAMPLE } })
  @ApiEnvelopeErrors(400, 403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] }, 413)
  @ApiBody({ type: CreateActionDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @FormBody(CreateActionDto, ['config'], 2) dto: CreateActionDto,
  ) {
    return { action: presentAction(await this.actions.create(caller, ruleId, dto)) };
  }

  @Get()
  @ApiSuccess({
    schema: {
      type: 'object',
      properties: { actions: { type: 'array', items: { $ref: getSchemaPath(ActionResponse) } } },
    },
    example: { actions: [ACTION_EXAMPLE] },
  })
  @ApiExtraModels(ActionResponse)
  @ApiEnvelopeErrors(403, { 404: ['Rule RUL019ab9f2c4e0a1b2c3d4e5 not found', 'rule_not_found'] })
  async list(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    return { actions: (await this.actions.list(caller, ruleId)).map(presentAction) };
  }

  @Get(':action_id')
  @ApiSuccess({ wrap: 'action', type: ActionResponse, example: { action: ACTION_EXAMPLE } })
  @ApiEnvelopeErrors(403, { 404: ['Action ACT019ab9f2c4e0a1b2c3d4e5 not found', 'action_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Param('action_id') actionId: string) {
    return { action: presentAction(await this.actions.get(caller, ruleId, actionId)) };
  }

  @Put(':action_id')
  @ApiSuccess({ wrap: 'action', type: ActionResponse, example: { action: { ...ACTION_EXAMPLE, status: 'disabled' } } })
  @ApiEnvelopeErrors(400, 403, { 404: ['Action ACT019ab9f2c4e0a1b2c3d4e5 not found', 'action_not_found'] }, 413)
  @ApiBody({ type: UpdateActionDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
    @FormBody(UpdateActionDto, ['config'], 2) dto: UpdateActionDto,
  ) {
    return { action: presentAction(await this.actions.update(caller, ruleId, actionId, dto)) };
  }

  @Delete(':action_id')
  @ApiSuccess({
    schema: { type: 'object', properties: { action_id: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { action_id: ACTION_EXAMPLE.action_id, deleted: true },
  })
  @ApiEnvelopeErrors(403, { 404: ['Action ACT019ab9f2c4e0a1b2c3d4e5 not found', 'action_not_found'] })
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
  ) {
    const action = await this.actions.delete(caller, ruleId, actionId);
    return { action_id: action.id, deleted: true };
  }
}
