/** The fields of a project as the History tab's comparison names them (compare-revisions.tsx). */
export const revisionFieldsEn = {
  field_name: 'Name',
  field_description: 'Description',
  field_content: 'Content',
  field_status: 'Status',
  field_source: 'Source',
  field_tags: 'Tags',
  field_links: 'Links',
  field_lock: 'Lock',
};
