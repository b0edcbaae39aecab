import type { revisionFieldsEn } from './revision-fields.en.ts';

export const revisionFieldsZh: typeof revisionFieldsEn = {
  field_name: '名称',
  field_description: '简介',
  field_content: '正文',
  field_status: '状态',
  field_source: '来源',
  field_tags: '标签',
  field_links: '链接',
  field_lock: '锁定',
};
