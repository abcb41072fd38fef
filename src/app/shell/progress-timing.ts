/**
 * How long an indeterminate progress bar shows only its track before its fill starts sliding: waits shorter
 * than a second need no moving indicator, and the animation costs a frame per display refresh while it runs.
 */
export const INDETERMINATE_DELAY_MS = 1000;
