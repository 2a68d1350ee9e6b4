import type { ImgHTMLAttributes } from 'react';
import { isMediaUrl, MEDIA_WIDTHS } from '../api';

/** `sizes` of an image as wide as the page's content box (1320 px at most, less its padding). */
export const CONTENT_WIDTH = '(min-width: 1320px) 1224px, 94vw';

/** `sizes` of a store's logo at the top of its page (a 96 px square at every width). */
export const STORE_LOGO_SIZES = '96px';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  src: string | null | undefined;
  /** The page's main image: loaded at once and first. */
  priority?: boolean;
  /** Above the fold: loaded at once; otherwise lazily. */
  eager?: boolean;
};

/** The addresses an image is fetched from: one per width the API makes, for the browser to choose. */
export function imageSources(src: string, sizes: string) {
  const media = isMediaUrl(src);
  return {
    src: media ? `${src}?w=640` : src,
    srcSet: media ? MEDIA_WIDTHS.map((w) => `${src}?w=${w} ${w}w`).join(', ') : undefined,
    sizes: media ? sizes : undefined,
  };
}

/** An API image in the width the layout needs (`?w=`), lazily loaded below the fold. */
export function Img({ src, priority, eager, sizes = '100vw', alt = '', ...rest }: Props) {
  if (!src) return <span className="img-placeholder" aria-hidden="true" />;
  return (
    <img
      {...rest}
      alt={alt}
      {...imageSources(src, sizes)}
      loading={priority || eager ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : undefined}
    />
  );
}

/**
 * A picture that links to a merchant's site, in a new tab. Its texts (the image's alt text, a
 * title) name the link; one without any is named by `fallback`.
 */
export function PictureLink({
  href,
  named,
  fallback,
  className,
  children,
}: {
  href: string | null | undefined;
  named: boolean;
  fallback: string;
  className?: string;
  children: React.ReactNode;
}) {
  if (!href) return <div className={className}>{children}</div>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      aria-label={named ? undefined : fallback}
    >
      {children}
    </a>
  );
}
