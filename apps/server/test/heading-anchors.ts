/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces to '-'. */
export function headingAnchors(text: string): Set<string> {
  const anchors = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    (m[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
  return new Set(anchors);
}
