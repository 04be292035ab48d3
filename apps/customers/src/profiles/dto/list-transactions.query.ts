import { CursorPageQuery } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

import { TRANSACTION_PRODUCTS, TransactionProduct } from '../transaction.entity';

export class ListTransactionsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: TRANSACTION_PRODUCTS })
  @IsOptional()
  @IsIn(TRANSACTION_PRODUCTS, { message: `product must be one of ${TRANSACTION_PRODUCTS.join(', ')}` })
  product?: TransactionProduct;
}
