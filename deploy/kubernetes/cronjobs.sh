#!/bin/sh
# One CronJob per node from mlpscope-cronjob.yaml, as a YAML stream:
#
#   deploy/kubernetes/cronjobs.sh | kubectl apply -f -           # every node kubectl lists
#   deploy/kubernetes/cronjobs.sh node-a node-b > mlpscope.yaml  # the nodes named
#
# MLPSCOPE_IMAGE names the image (default mlpscope:0.1.0, built by the
# Containerfile beside this script); MLPSCOPE_MODE=quick runs --quick (20 s
# a node) instead of the full report. Run it again when nodes are added.
# Writes nothing itself; a node name that is not a DNS name is refused.
set -eu
here=$(dirname "$0")
image=${MLPSCOPE_IMAGE:-mlpscope:0.1.0}
case ${MLPSCOPE_MODE:-full} in
full | quick) ;;
*)
	echo "cronjobs.sh: MLPSCOPE_MODE: '$MLPSCOPE_MODE' (expected full or quick)" >&2
	exit 2
	;;
esac
if [ $# -eq 0 ]; then
	nodes=$(kubectl get nodes -o jsonpath='{.items[*].metadata.name}') || exit 1
	# shellcheck disable=SC2086 # node names hold no blanks
	set -- $nodes
fi
for node in "$@"; do
	case $node in
	*[!a-z0-9.-]* | "" | -* | .*)
		echo "cronjobs.sh: node '$node' is not a node name (expected lowercase letters, digits, '-' and '.')" >&2
		exit 2
		;;
	esac
	# A CronJob's name holds at most 52 characters; a longer node name is
	# cut and told apart by its checksum.
	name=mlpscope-$(echo "$node" | tr . -)
	if [ ${#name} -gt 52 ]; then
		sum=$(printf '%s' "$node" | cksum | cut -d' ' -f1)
		name=$(echo "$name" | cut -c1-43)-$(printf '%08x' "$sum")
	fi
	echo "---"
	# the template's comments stay in the template
	sed -e '/^#/d' -e "s|__NODE__|$node|g" -e "s|__NAME__|$name|g" -e "s|__IMAGE__|$image|g" \
		"$here/mlpscope-cronjob.yaml" |
		awk -v quick="${MLPSCOPE_MODE:-full}" '{ print } quick == "quick" && /^ *- report$/ { sub(/- report$/, "- --quick"); print }'
done
