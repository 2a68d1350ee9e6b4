import type { ImgHTMLAttributes } from 'react';
import { isMediaUrl, MEDIA_WIDTHS } from '../api';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  src: string | null | undefined;
  /** Above the fold: loaded at once and first; otherwise lazily. */
  priority?: boolean;
};

/** An API image in the width the layout needs (`?w=`), lazily loaded below the fold. */
export function Img({ src, priority, sizes = '100vw', alt = '', ...rest }: Props) {
  if (!src) return <span className="img-placeholder" aria-hidden="true" />;
  const media = isMediaUrl(src);
  return (
    <img
      {...rest}
      alt={alt}
      src={media ? `${src}?w=640` : src}
      srcSet={media ? MEDIA_WIDTHS.map((w) => `${src}?w=${w} ${w}w`).join(', ') : undefined}
      sizes={media ? sizes : undefined}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : undefined}
    />
  );
}

/** A link to a merchant's site, in a new tab, or plain content when there is none. */
export function MerchantLink({
  href,
  label,
  children,
}: {
  href: string | null | undefined;
  label: string;
  children: React.ReactNode;
}) {
  if (!href) return <>{children}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      {children}
    </a>
  );
}
