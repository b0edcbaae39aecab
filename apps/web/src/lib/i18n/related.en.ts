/** The project page's related projects (features/projects/components/related-projects.tsx). */
export const relatedEn = {
  relatedTitle: 'Related projects',
  relatedNone: 'No related project yet.',
  relatedTags: 'Tags',
  relatedWords: 'Words',
  relatedOwner: 'Same owner',
  /** How the shared tags and words are listed. */
  relatedList: (items: string[]) => items.join(', '),
};
