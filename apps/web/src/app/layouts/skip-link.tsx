// "Skip to content", the first stop of the keyboard on every layout: it moves the focus to the page's main
// content, past the top bar and menus. The link keeps the address as it is (no #fragment, which the router
// would take for a navigation).
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './layouts.module.css';

export const MAIN_CONTENT_ID = 'main-content';

/** What a layout's <main> needs to be the skip link's target: its id, and focusable by script only. */
export const mainContentProps = { id: MAIN_CONTENT_ID, tabIndex: -1, className: classes.main } as const;

/** Moves the focus to the main content (the skip link, and the admin menu after it led elsewhere). */
export function focusMainContent() {
  const main = document.getElementById(MAIN_CONTENT_ID);
  if (!main) return false;
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
  return true;
}

export function SkipLink() {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    if (focusMainContent()) event.preventDefault();
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink} onClick={skip}>
      {t('skipToContent')}
    </a>
  );
}
