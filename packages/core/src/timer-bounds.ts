// The longest delay a Node timer waits: setTimeout and setInterval treat a
// longer one as 1 ms, with only a warning on stderr, so a setting past it
// would not wait longer but fire at once, over and over. Every duration that
// becomes a timer is refused past it, or waited out in steps.
export const MAX_TIMER_MS = 2 ** 31 - 1;
