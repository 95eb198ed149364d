import { z } from 'zod';
import { BooleanQuery, Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateCustomFieldInput, CustomFieldObjectType, UpdateCustomFieldFields } from '../../../../shared/contracts/custom-fields.js';
import { pathId } from '../../../api/path-id.js';

export const CustomFieldIdParams = z.strictObject({ id: pathId('fld_') });

export const ListCustomFieldsQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional(),
  object_type: CustomFieldObjectType.optional(),
  include_archived: BooleanQuery.optional().describe('Also list archived fields'),
});

export const CreateCustomFieldBody = CreateCustomFieldInput;
export const UpdateCustomFieldBody = UpdateCustomFieldFields;
