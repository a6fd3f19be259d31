/** The languages eval runs. */
export const LANGUAGES = ['python', 'javascript'] as const;

/** A language eval runs: Python on ipykernel, JavaScript on eval's own Node kernel. */
export type KernelLanguage = (typeof LANGUAGES)[number];
