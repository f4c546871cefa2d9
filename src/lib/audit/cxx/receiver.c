/* receiver.c - the receiver of a C++ method use: a tensor or not
 * SPDX-License-Identifier: MIT
 *
 * Methods (.type(), .data<T>()) are judged by their receiver, from the
 * masked text before the '.' or '->': a call such as x.device() or
 * x.options(), a name such as scalar or options or ending in _device, a
 * name declared auto from such a call, or a name declared in the
 * LOOKBACK bytes (64 KiB) before the use with a type that is not a
 * tensor (Scalar, Device, TensorOptions, ...) is not at::Tensor; anything
 * else is assumed to be one (a guess, written down in
 * torchgate-audit(1)).
 *
 * Worst case: a backward search of LOOKBACK bytes per method use.
 */
#include <string.h>

#include "lib/audit/cxx/internal.h"

/* Names and types that are not tensors, for a method's receiver. */
static const char *const not_tensor_calls[] = {
    "device", "options", "dtype",   "scalar_type", "layout", "get_device",
    "type",   "item",	 "storage", "toScalar",	   NULL};
static const char *const not_tensor_names[] = {
    "scalar", "options", "opts", "device", "dev", "dtype", "node", NULL};
static const char *const not_tensor_types[] = {
    "Scalar", "TensorOptions", "Device",   "ScalarType", "DeviceType", "Layout",
    "IValue", "TypeMeta",      "Storage",  "handle",	 "object",     "Value",
    "Node",   "TypePtr",       "TypeMeta", "Generator",	 NULL};

static int
in_list(const char *const *l, const char *s, size_t n)
{
	for (; *l; l++)
		if (tg_audit_cxx_word_is(s, n, *l))
			return 1;
	return 0;
}

/* "auto NAME = ...;" with the initializer at init: 1 when it ends in a
 * call of not_tensor_calls (auto dev = t.device();), else 0. */
static int
auto_not_tensor(const struct cx *x, size_t init)
{
	const char *m = x->code;
	size_t k = init, lim = init + 512 < x->len ? init + 512 : x->len, e;

	while (k < lim && (m[k] == ' ' || m[k] == '\t'))
		k++;
	if (k >= lim || m[k] != '=')
		return 0;
	while (k < lim && m[k] != ';')
		k++;
	if (k >= lim)
		return 0;
	while (k > init &&
	       (m[k - 1] == ' ' || m[k - 1] == '\t' || m[k - 1] == '\n'))
		k--;
	/* "name()" with nothing inside the parentheses */
	if (k < init + 3 || m[k - 1] != ')' || m[k - 2] != '(')
		return 0;
	e = k - 2;
	k = e;
	while (k > init && is_ident((unsigned char)m[k - 1]))
		k--;
	return in_list(not_tensor_calls, m + k, e - k);
}

/* Whether the name s[0..n) ends in "_device", "_dev", "_options",
 * "_opts" or "_dtype" (ref_device, out_opts). */
static int
not_tensor_suffix(const char *s, size_t n)
{
	static const char *const sfx[] = {"_device", "_dev",   "_options",
					  "_opts",   "_dtype", NULL};
	size_t k;

	for (k = 0; sfx[k]; k++)
		if (tg_audit_cxx_ends_with(s, n, sfx[k]))
			return 1;
	return 0;
}

/* The declared type of the name s[a..e) in the LOOKBACK bytes before
 * use: 1 not a tensor, 0 a Tensor or not known. */
static int
declared_not_tensor(const struct cx *x, size_t a, size_t e, size_t use)
{
	const char *m = x->code;
	size_t n = e - a, from = use > LOOKBACK ? use - LOOKBACK : 0, i;
	int verdict = 0;

	for (i = from; i + n <= use; i++) {
		size_t j, te;
		const char *q = memmem(m + i, use - i, m + a, n);

		if (!q)
			break;
		i = (size_t)(q - m);
		if ((i > 0 && is_ident(m[i - 1])) ||
		    is_ident((unsigned char)m[i + n]))
			continue;
		j = i;
		while (j > 0 &&
		       (m[j - 1] == ' ' || m[j - 1] == '\t' ||
			m[j - 1] == '&' || m[j - 1] == '*' || m[j - 1] == '\n'))
			j--;
		te = j;
		while (j > 0 && is_ident((unsigned char)m[j - 1]))
			j--;
		if (te == j || tg_audit_cxx_word_is(m + j, te - j, "const") ||
		    tg_audit_cxx_word_is(m + j, te - j, "return"))
			continue;
		if (tg_audit_cxx_word_is(m + j, te - j, "auto")) {
			verdict = auto_not_tensor(x, i + n);
			continue;
		}
		if (in_list(not_tensor_types, m + j, te - j))
			verdict = 1;
		else if (tg_audit_cxx_word_is(m + j, te - j, "Tensor"))
			verdict = 0;
	}
	return verdict;
}

/* Whether the receiver of the method access at dot (the '.' or '-' of
 * "->") is known not to be a tensor. */
int
tg_audit_cxx_receiver_not_tensor(const struct cx *x, size_t dot)
{
	const char *m = x->code;
	size_t j = dot, e, a;

	while (j > 0 &&
	       (m[j - 1] == ' ' || m[j - 1] == '\t' || m[j - 1] == '\n'))
		j--;
	if (j > 0 && m[j - 1] == ')') {
		/* a call: the name before its '(' */
		size_t d = 0, lim = j > 4096 ? j - 4096 : 0;

		while (j > lim) {
			j--;
			if (m[j] == ')')
				d++;
			else if (m[j] == '(' && --d == 0)
				break;
		}
		if (d)
			return 0;
		while (j > 0 && (m[j - 1] == ' ' || m[j - 1] == '\t'))
			j--;
		e = j;
		while (j > 0 && is_ident((unsigned char)m[j - 1]))
			j--;
		return in_list(not_tensor_calls, m + j, e - j);
	}
	e = j;
	while (j > 0 && is_ident((unsigned char)m[j - 1]))
		j--;
	a = j;
	if (a == e)
		return 0;
	if (in_list(not_tensor_names, m + a, e - a) ||
	    not_tensor_suffix(m + a, e - a))
		return 1;
	return declared_not_tensor(x, a, e, a);
}
