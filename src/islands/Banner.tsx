import './banner.css';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { nextIndex, prevIndex, tapAction, type BannerSlide } from '../lib/expo/carousel';
import { interpolate } from '../lib/util/interpolate';
import { TOAST_MS } from '../lib/page/toast';
import { showToast } from '../stores/toast';

/** The texts the banner shows, translated on the server (no i18n runtime in the client). */
export const BANNER_STRING_KEYS = [
  'banner.label',
  'banner.footerLabel',
  'banner.imageAlt',
  'banner.preview',
  'banner.prev',
  'banner.next',
  'banner.open',
  'banner.jumpError',
  'app.close',
] as const;
export type BannerStringKey = (typeof BANNER_STRING_KEYS)[number];

export interface BannerProps {
  /** from src/lib/expo/carousel.ts bannerSlides: never empty (the default logo stands in) */
  slides: BannerSlide[];
  /** autoplay interval in ms (spec §9: 3000 for the special expo, 10000 otherwise); 0: no autoplay (the footer carousel, spec §2.5) */
  autoplayMs: number;
  /** the footer carousel: its own region name, so the page's two carousels stay distinct landmarks */
  footer?: boolean | undefined;
  strings: Record<BannerStringKey, string>;
}

/**
 * The banner carousel (spec §2.5). Server-rendered, the first image shows without JavaScript,
 * and an http(s) jump link is a plain link that opens a new window. Hydrated: it turns every
 * `autoplayMs`, a tap on an image without link opens the full-screen preview at that image,
 * and a link that does not start with http or https shows the banner.jumpError toast and is
 * never followed.
 */
export default function Banner({ slides, autoplayMs, footer = false, strings }: BannerProps) {
  const [index, setIndex] = useState(0);
  const [preview, setPreview] = useState<number | null>(null);
  const [paused, setPaused] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const count = slides.length;

  useEffect(() => {
    if (count < 2 || autoplayMs <= 0 || preview !== null || paused) return;
    const timer = setInterval(() => setIndex((i) => nextIndex(i, count)), autoplayMs);
    return () => clearInterval(timer);
  }, [count, autoplayMs, preview, paused]);

  useEffect(() => {
    if (preview !== null) closeRef.current?.focus();
  }, [preview]);

  const close = useCallback(() => {
    setPreview(null);
    returnFocus.current?.focus();
  }, []);

  const onTap = (i: number, el: HTMLElement) => {
    const action = tapAction(slides, i);
    if (action.kind === 'jump-error') {
      showToast({ key: null, text: strings['banner.jumpError'], durationMs: TOAST_MS });
    } else if (action.kind === 'preview') {
      returnFocus.current = el;
      setPreview(action.index);
    } else {
      window.open(action.href, '_blank', 'noopener,noreferrer');
    }
  };

  const onPreviewKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowRight') setPreview((p) => nextIndex(p ?? 0, count));
    else if (e.key === 'ArrowLeft') setPreview((p) => prevIndex(p ?? 0, count));
  };

  const alt = (i: number) => interpolate(strings['banner.imageAlt'], { n: i + 1 });

  return (
    <section
      className="banner"
      aria-roledescription="carousel"
      aria-label={strings[footer ? 'banner.footerLabel' : 'banner.label']}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
    >
      <div className="banner-track" aria-live={paused ? 'polite' : 'off'}>
        {slides.map((slide, i) => {
          const action = tapAction(slides, i);
          const img = (
            <img
              src={slide.src}
              alt={alt(i)}
              decoding="async"
              {...(i === 0 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
            />
          );
          return (
            <div key={`${i}-${slide.src}`} className="banner-slide" hidden={i !== index} aria-roledescription="slide">
              {action.kind === 'open' ? (
                <a
                  href={action.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${alt(i)} · ${strings['banner.open']}`}
                >
                  {img}
                </a>
              ) : (
                <button
                  type="button"
                  onClick={(e) => onTap(i, e.currentTarget)}
                  aria-label={`${alt(i)} · ${strings['banner.preview']}`}
                >
                  {img}
                </button>
              )}
            </div>
          );
        })}
      </div>
      {count > 1 && (
        <div className="banner-dots">
          <button
            type="button"
            className="banner-step"
            onClick={() => setIndex((i) => prevIndex(i, count))}
            aria-label={strings['banner.prev']}
          >
            ‹
          </button>
          {slides.map((slide, i) => (
            <span
              key={`dot-${i}-${slide.src}`}
              className={i === index ? 'banner-dot is-active' : 'banner-dot'}
              aria-hidden="true"
            />
          ))}
          <button
            type="button"
            className="banner-step"
            onClick={() => setIndex((i) => nextIndex(i, count))}
            aria-label={strings['banner.next']}
          >
            ›
          </button>
        </div>
      )}
      {preview !== null && (
        <div
          className="banner-preview"
          role="dialog"
          aria-modal="true"
          aria-label={strings['banner.preview']}
          onKeyDown={onPreviewKey}
        >
          <img src={slides[preview]?.src} alt={alt(preview)} />
          <div className="banner-preview-bar">
            {count > 1 && (
              <button
                type="button"
                onClick={() => setPreview((p) => prevIndex(p ?? 0, count))}
                aria-label={strings['banner.prev']}
              >
                ‹
              </button>
            )}
            <span aria-live="polite">
              {preview + 1} / {count}
            </span>
            {count > 1 && (
              <button
                type="button"
                onClick={() => setPreview((p) => nextIndex(p ?? 0, count))}
                aria-label={strings['banner.next']}
              >
                ›
              </button>
            )}
            <button type="button" ref={closeRef} onClick={close}>
              {strings['app.close']}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
