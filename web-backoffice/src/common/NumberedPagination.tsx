import { Box, Pagination, PaginationItem } from '@mui/material';
import { useListPaginationContext, useTranslate } from 'react-admin';

/** A numbered pager with Previous and Next (spec §9: approval lists page in fives). */
const Previous = () => <span>{useTranslate()('offers.review.previous')}</span>;
const Next = () => <span>{useTranslate()('offers.review.next')}</span>;

export const NumberedPagination = () => {
  const { page, perPage, total, setPage } = useListPaginationContext();
  const translate = useTranslate();
  const pages = Math.ceil((total ?? 0) / perPage);
  if (pages <= 1) return null;
  return (
    <Box
      component="nav"
      aria-label={translate('offers.review.pager')}
      sx={{ display: 'flex', justifyContent: 'center', p: 2 }}
    >
      <Pagination
        count={pages}
        page={page}
        onChange={(_, next) => setPage(next)}
        color="primary"
        getItemAriaLabel={(type, number) =>
          type === 'page'
            ? translate('offers.review.page', { page: number })
            : translate(type === 'previous' ? 'offers.review.previous' : 'offers.review.next')
        }
        renderItem={(item) => <PaginationItem {...item} slots={{ previous: Previous, next: Next }} />}
      />
    </Box>
  );
};
