/* BSMP: bsp_set_tagsize returns the old size and applies from the next superstep;
 * bsp_send copies tag and payload at the call; messages arrive at the sync; bsp_qsize,
 * bsp_get_tag (-1 on an empty queue), bsp_move (truncating), bsp_hpmove; unread messages
 * are gone after the next sync. */
#include <stdio.h>
#include <string.h>

#include "bsp_check.h"

int main(void) {
  bsp_begin(bsp_nprocs());
  int p = bsp_nprocs(), s = bsp_pid();
  int n, bytes, status;
  int tagsize = (int)sizeof(int);
  bsp_set_tagsize(&tagsize);
  CHECK(tagsize == 0); /* the default tag size is 0 */
  bsp_sync();

  /* each process sends every process one message tagged with its pid, payload 3 ints */
  for (int q = 0; q < p; ++q) {
    int tag = s, payload[3] = {s, q, s * q};
    bsp_send(q, &tag, payload, (int)sizeof payload);
    tag = -7;
    payload[0] = -7; /* copied at the call */
  }
  bsp_qsize(&n, &bytes);
  CHECK(n == 0 && bytes == 0); /* nothing before the sync */
  bsp_sync();
  bsp_qsize(&n, &bytes);
  CHECK(n == p && bytes == p * 3 * (int)sizeof(int));
  int seen = 0;
  for (int k = 0; k < p; ++k) {
    int tag = -1, payload[3];
    bsp_get_tag(&status, &tag);
    CHECK(status == 3 * (int)sizeof(int));
    CHECK(tag >= 0 && tag < p);
    if (k == 0) {
      int part[2] = {0, -3};
      bsp_move(part, (int)sizeof(int)); /* truncates to what the receiver asks for */
      CHECK(part[0] == tag && part[1] == -3);
    } else {
      bsp_move(payload, (int)sizeof payload);
      CHECK(payload[0] == tag && payload[1] == s && payload[2] == tag * s);
    }
    seen |= 1 << tag;
    bsp_qsize(&n, &bytes);
    CHECK(n == p - 1 - k);
  }
  CHECK(seen == (1 << p) - 1);
  bsp_get_tag(&status, NULL);
  CHECK(status == -1);

  /* tag size change: 0-byte tags from the next superstep; hpmove; dropping unread ones */
  int zero = 0;
  bsp_set_tagsize(&zero);
  CHECK(zero == (int)sizeof(int));
  bsp_sync();
  double d = 1.5 * s;
  bsp_send((s + 1) % p, NULL, &d, (int)sizeof d);
  bsp_send((s + 1) % p, NULL, &d, 0); /* empty payload is a message too */
  bsp_sync();
  void *tagp, *payp;
  int len = bsp_hpmove(&tagp, &payp);
  CHECK(len == (int)sizeof d);
  double got;
  memcpy(&got, payp, sizeof got);
  CHECK(got == 1.5 * ((s + p - 1) % p));
  bsp_qsize(&n, &bytes);
  CHECK(n == 1 && bytes == 0);
  bsp_sync(); /* the unread empty message is dropped */
  bsp_qsize(&n, &bytes);
  CHECK(n == 0);
  CHECK(bsp_hpmove(&tagp, &payp) == -1);
  bsp_end();
  printf("PASS t_bsmp\n");
  return 0;
}
