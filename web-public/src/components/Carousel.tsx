import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n';

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * Slides that turn by themselves (paused while hovered or focused, and for visitors who ask for
 * reduced motion), by swipe, by the buttons and by the arrow keys.
 */
export function Carousel({
  label,
  slides,
  intervalMs = 5000,
  autoplay = true,
}: {
  label: string;
  slides: ReactNode[];
  intervalMs?: number;
  autoplay?: boolean;
}) {
  const { t } = useI18n();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [stopped, setStopped] = useState(!autoplay);
  // Known only in the browser: the server renders the carousel as it starts for everyone.
  useEffect(() => {
    if (reducedMotion()) setStopped(true);
  }, []);
  const swipeStart = useRef<number | null>(null);
  const swiped = useRef(false);
  const count = slides.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);

  useEffect(() => {
    if (paused || stopped || count < 2) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => clearInterval(timer);
  }, [paused, stopped, count, intervalMs]);

  if (count === 0) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section
      className="carousel"
      aria-roledescription={t('home.carouselRole')}
      aria-label={label}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        swipeStart.current = event.clientX;
        swiped.current = false;
      }}
      onPointerUp={(event) => {
        if (swipeStart.current === null) return;
        const distance = event.clientX - swipeStart.current;
        swipeStart.current = null;
        if (Math.abs(distance) > 40) {
          swiped.current = true;
          go(index + (distance < 0 ? 1 : -1));
        }
      }}
      // A swipe is not a click on the slide's link, and does not drag its image away.
      onClickCapture={(event) => {
        if (swiped.current) event.preventDefault();
        swiped.current = false;
      }}
      onDragStart={(event) => event.preventDefault()}
    >
      <div className="carousel-track" aria-live={paused || stopped ? 'polite' : 'off'}>
        {slides.map((slide, position) => (
          // biome-ignore lint/a11y/useSemanticElements: the carousel pattern's slide is a role=group
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: slides keep their order
            key={position}
            className="carousel-slide"
            role="group"
            aria-roledescription={t('home.slideRole')}
            aria-label={t('home.slide', { n: position + 1, total: count })}
            hidden={position !== index}
          >
            {slide}
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="carousel-controls">
          <button type="button" onClick={() => go(index - 1)} aria-label={t('home.previous')}>
            <span aria-hidden="true">‹</span>
          </button>
          <button type="button" onClick={() => setStopped(!stopped)}>
            {stopped ? t('home.play') : t('home.pause')}
          </button>
          <button type="button" onClick={() => go(index + 1)} aria-label={t('home.next')}>
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </section>
  );
}
