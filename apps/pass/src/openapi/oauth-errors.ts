import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** The RFC 6749 error body (refresh_token and CIBA grants, bc-authorize). */
export class OAuthErrorDto {
  @ApiProperty({ example: 'invalid_grant' })
  error!: string;

  @ApiPropertyOptional({ example: 'grant request is invalid' })
  error_description?: string;
}

/**
 * Documents RFC 6749 error answers: per status, the `error` values and when each is given. With `envelope`,
 * the status may also answer the service envelope (the JSON authorization_code grant).
 */
export function ApiOAuthErrors(
  errors: Record<number, [error: string, when: string][]>,
  envelopeToo: number[] = [],
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ...Object.entries(errors).map(([status, list]) =>
      ApiResponse({
        status: Number(status),
        description: list.map(([e, when]) => `\`${e}\`: ${when}`).join('; '),
        content: {
          'application/json': {
            schema: envelopeToo.includes(Number(status))
              ? { oneOf: [{ $ref: getSchemaPath(OAuthErrorDto) }, { $ref: '#/components/schemas/ErrorEnvelopeDto' }] }
              : { $ref: getSchemaPath(OAuthErrorDto) },
            example: { error: list[0][0], error_description: list[0][1] },
          },
        },
      }),
    ),
  );
}
