/* jansson's memory while a worker parses one request, from a per-thread bump arena.
 *
 * Parsing even a tiny body makes jansson allocate dozens of blocks (nodes, strings, hash
 * tables, the lexer's buffers), each freed again when the tree is dropped: for the 3 x 3 nine
 * sample that was more malloc/free work than the rest of the parse. Between json_arena_begin()
 * and json_arena_end() on a thread, jansson's blocks are carved from that thread's arena, its
 * frees do nothing, and the end makes the whole arena free again. Outside that window, on
 * other threads, and once the arena is full (a big body), jansson uses malloc and free as
 * before; a free tells the two apart by address.
 *
 * The rule that makes it safe: nothing jansson allocated between begin and end may be used
 * after end. api_answer_solve() fits: it drops the parse tree before it returns (the codecs
 * copy what they need into plain structs). */
#ifndef PUZZLED_JSON_ARENA_H
#define PUZZLED_JSON_ARENA_H

#include <stdbool.h>

#define JSON_ARENA_SIZE (64 * 1024)

/* Routes jansson's allocations through the arena: once, before threads use jansson. */
bool json_arena_install(void);

/* Opens / closes the window on the calling thread. */
void json_arena_begin(void);
void json_arena_end(void);

#endif
