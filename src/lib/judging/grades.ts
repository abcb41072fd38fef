/**
 * The grades a person judges with: 0–3, pressed as the keys 0–3, each with a label and a one-line
 * guideline that the judging screen shows beside it. The defaults are the TREC Deep Learning track's
 * four-point scale (Craswell et al. 2019), which BEIR's graded collections follow; a collection may
 * rename them and rewrite the guidelines (stored on its row, see storage/judgments.ts).
 */

export interface GradeLabel {
  grade: number;
  label: string;
  guideline: string;
}

const JUDGING_GRADES = [0, 1, 2, 3] as const;

export const DEFAULT_GRADES: readonly GradeLabel[] = [
  { grade: 0, label: 'Not relevant', guideline: 'Has nothing to do with the query.' },
  { grade: 1, label: 'Related', guideline: 'On the topic, but does not answer the information need.' },
  { grade: 2, label: 'Relevant', guideline: 'Answers part of the need, or answers it with extra material.' },
  { grade: 3, label: 'Highly relevant', guideline: 'Dedicated to the query: answers the need fully.' },
];

export const MAX_LABEL_LENGTH = 40;
export const MAX_GUIDELINE_LENGTH = 240;

/**
 * The four grades from stored (or edited) labels: one entry per grade 0–3 in order, a missing or blank
 * label replaced by the default's, text trimmed and cut to the maximum lengths.
 */
export function gradeLabels(stored: readonly GradeLabel[] | undefined): GradeLabel[] {
  return JUDGING_GRADES.map((grade) => {
    const fallback = DEFAULT_GRADES[grade]!;
    const own = stored?.find((entry) => entry.grade === grade);
    const label = own?.label.trim().slice(0, MAX_LABEL_LENGTH) ?? '';
    const guideline = own?.guideline.trim().slice(0, MAX_GUIDELINE_LENGTH) ?? fallback.guideline;
    return { grade, label: label.length > 0 ? label : fallback.label, guideline };
  });
}
